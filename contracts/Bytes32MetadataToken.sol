// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {NoMetadataToken} from "./NoMetadataToken.sol";

/// @notice An ERC-20 whose `name()` and `symbol()` return `bytes32` (right-padded with NULs) rather
/// than `string`, as MKR and other DSToken-era tokens do; `decimals()` returns `uint256`, as MKR's does.
contract Bytes32MetadataToken is NoMetadataToken {
    bytes32 public name;
    bytes32 public symbol;
    uint256 public constant decimals = 18;

    constructor(bytes32 name_, bytes32 symbol_, address holder, uint256 supply) NoMetadataToken(holder, supply) {
        name = name_;
        symbol = symbol_;
    }
}
