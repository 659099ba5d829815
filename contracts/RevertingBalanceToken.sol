// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @notice An ERC-20 (18 decimals) whose `balanceOf` reverts for some holders, so a balance reader
/// must report a per-token error rather than fail the whole answer.
/// The rule: `balanceOf(account)` reverts with `BalanceUnavailable(account)` for every address whose
/// last byte is 0xff. Transfers still work for those holders (they read the balances directly).
contract RevertingBalanceToken is ERC20 {
    error BalanceUnavailable(address account);

    constructor(string memory name_, string memory symbol_, address holder, uint256 supply) ERC20(name_, symbol_) {
        _mint(holder, supply);
    }

    function balanceOf(address account) public view override returns (uint256) {
        if (uint160(account) & 0xff == 0xff) revert BalanceUnavailable(account);
        return super.balanceOf(account);
    }
}
