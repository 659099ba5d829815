// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC1155} from "@openzeppelin/contracts/token/ERC1155/ERC1155.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// @notice The local world's ERC-1155 collection. `uri(id)` is `baseURI + "{id}.json"` with the
/// `{id}` left for the client to replace (ERC-1155: the id as 64 lowercase hex digits); the owner sets
/// the base, and each change is announced with a `URI` event per minted id.
contract MaterialCollection is ERC1155, Ownable {
    /// Not part of ERC-1155, but read by marketplaces and indexers for the collection's name.
    string public name;
    string public symbol;
    string public baseURI;
    uint256[] private _minted;
    mapping(uint256 => bool) private _known;

    constructor(string memory name_, string memory symbol_, address owner_) ERC1155("") Ownable(owner_) {
        name = name_;
        symbol = symbol_;
    }

    function uri(uint256) public view override returns (string memory) {
        return string.concat(baseURI, "{id}.json");
    }

    function setBaseURI(string calldata base) external onlyOwner {
        baseURI = base;
        string memory template = uri(0);
        for (uint256 i = 0; i < _minted.length; i++) emit URI(template, _minted[i]);
    }

    function mintBatch(address to, uint256[] calldata ids, uint256[] calldata amounts) external onlyOwner {
        for (uint256 i = 0; i < ids.length; i++) {
            if (_known[ids[i]]) continue;
            _known[ids[i]] = true;
            _minted.push(ids[i]);
        }
        _mintBatch(to, ids, amounts, "");
    }
}
