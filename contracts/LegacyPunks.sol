// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice A legacy NFT in the manner of CryptoPunks (2017), before ERC-721: no `ownerOf`, no
/// `tokenURI`, no ERC-165. Ownership is `punkIndexToAddress`. Its owner hands out punks with
/// `setInitialOwners` (an `Assign` per punk); `transferPunk` emits `Transfer(from, to, 1)` (the ERC-20
/// event's signature, so the same topic as ERC-20 and ERC-721 `Transfer`, with the count, not the punk,
/// in its data) and then `PunkTransfer(from, to, punkIndex)`, which names the punk.
contract LegacyPunks {
    string public name;
    string public symbol;
    uint8 public constant decimals = 0;
    uint256 public totalSupply;
    address public immutable owner;

    mapping(uint256 => address) public punkIndexToAddress;
    mapping(address => uint256) public balanceOf;

    event Assign(address indexed to, uint256 punkIndex);
    event Transfer(address indexed from, address indexed to, uint256 value);
    event PunkTransfer(address indexed from, address indexed to, uint256 punkIndex);

    error NotOwner();
    error NoSuchPunk(uint256 punkIndex);
    error AlreadyAssigned(uint256 punkIndex);
    error NotYourPunk(uint256 punkIndex);

    constructor(string memory name_, string memory symbol_, uint256 totalSupply_, address owner_) {
        name = name_;
        symbol = symbol_;
        totalSupply = totalSupply_;
        owner = owner_;
    }

    function setInitialOwners(address[] calldata addresses, uint256[] calldata indices) external {
        if (msg.sender != owner) revert NotOwner();
        for (uint256 i = 0; i < indices.length; i++) {
            uint256 punkIndex = indices[i];
            if (punkIndex >= totalSupply) revert NoSuchPunk(punkIndex);
            if (punkIndexToAddress[punkIndex] != address(0)) revert AlreadyAssigned(punkIndex);
            punkIndexToAddress[punkIndex] = addresses[i];
            balanceOf[addresses[i]]++;
            emit Assign(addresses[i], punkIndex);
        }
    }

    function transferPunk(address to, uint256 punkIndex) external {
        if (punkIndex >= totalSupply) revert NoSuchPunk(punkIndex);
        if (punkIndexToAddress[punkIndex] != msg.sender) revert NotYourPunk(punkIndex);
        punkIndexToAddress[punkIndex] = to;
        balanceOf[msg.sender]--;
        balanceOf[to]++;
        emit Transfer(msg.sender, to, 1);
        emit PunkTransfer(msg.sender, to, punkIndex);
    }
}
