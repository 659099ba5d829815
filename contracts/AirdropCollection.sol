// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {HostedMetadataERC721} from "./HostedMetadataERC721.sol";

/// @notice A mass-airdropped ERC-721, the shape of NFT spam: one `airdrop` call mints a token to each
/// of many addresses that never asked for it, in one transaction (ids 1, 2, ... in order), and every
/// token shares one metadata document, `baseURI + "pass.json"`.
contract AirdropCollection is HostedMetadataERC721 {
    uint256 public totalSupply;

    constructor(string memory name_, string memory symbol_, address owner_) HostedMetadataERC721(name_, symbol_, owner_) {}

    function airdrop(address[] calldata recipients) external onlyOwner {
        uint256 next = totalSupply;
        for (uint256 i = 0; i < recipients.length; i++) _mint(recipients[i], ++next);
        totalSupply = next;
    }

    function tokenURI(uint256 id) public view override returns (string memory) {
        _requireOwned(id);
        return string.concat(baseURI, "pass.json");
    }
}
