// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @notice Wrapped ether of the local world, as WETH9 on public chains: ether sent to `deposit` (or to
/// the contract) mints as much WETH (18 decimals), `withdraw` burns it and sends the ether back.
/// Deposit and Withdrawal are WETH9's events; being OpenZeppelin's ERC-20, it also emits Transfer
/// from and to the zero address for them.
contract WorldWrappedEther is ERC20 {
    event Deposit(address indexed dst, uint256 wad);
    event Withdrawal(address indexed src, uint256 wad);

    error EtherNotSent(address to, uint256 wad);

    constructor() ERC20("Wrapped Ether", "WETH") {}

    receive() external payable {
        deposit();
    }

    function deposit() public payable {
        _mint(msg.sender, msg.value);
        emit Deposit(msg.sender, msg.value);
    }

    function withdraw(uint256 wad) external {
        _burn(msg.sender, wad);
        emit Withdrawal(msg.sender, wad);
        (bool sent,) = msg.sender.call{value: wad}("");
        if (!sent) revert EtherNotSent(msg.sender, wad);
    }
}
