// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @notice A plain ERC-20 of the local world. Its decimals are set at deployment, so one contract
/// serves both the ether-like token (18) and the USDC-like one (6). The whole supply goes to `holder`.
contract WorldToken is ERC20 {
    uint8 private immutable _decimals;

    constructor(string memory name_, string memory symbol_, uint8 decimals_, address holder, uint256 supply) ERC20(name_, symbol_) {
        _decimals = decimals_;
        _mint(holder, supply);
    }

    function decimals() public view override returns (uint8) {
        return _decimals;
    }
}
