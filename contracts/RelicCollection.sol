// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Base64} from "@openzeppelin/contracts/utils/Base64.sol";
import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";
import {HostedMetadataERC721} from "./HostedMetadataERC721.sol";

/// @notice The local world's ERC-721 collection, with both common kinds of token metadata:
/// below FIRST_ONCHAIN_ID, `tokenURI` is `baseURI + id + ".json"` (JSON and image served over HTTP);
/// from FIRST_ONCHAIN_ID on, it is a `data:application/json;base64,...` URI built on-chain, whose
/// image is itself a `data:image/svg+xml;base64,...` URI.
contract RelicCollection is HostedMetadataERC721 {
    using Strings for uint256;

    uint256 public constant FIRST_ONCHAIN_ID = 100;

    constructor(string memory name_, string memory symbol_, address owner_) HostedMetadataERC721(name_, symbol_, owner_) {}

    function mint(address to, uint256[] calldata ids) external onlyOwner {
        for (uint256 i = 0; i < ids.length; i++) _mint(to, ids[i]);
    }

    function tokenURI(uint256 id) public view override returns (string memory) {
        _requireOwned(id);
        if (id < FIRST_ONCHAIN_ID) return string.concat(baseURI, id.toString(), ".json");
        string memory number = id.toString();
        string memory image = string.concat(
            "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 64 64'><rect width='64' height='64' fill='#",
            _colour(id),
            "'/><text x='32' y='40' font-family='monospace' font-size='16' text-anchor='middle' fill='#fff'>",
            number,
            "</text></svg>"
        );
        string memory json = string.concat(
            '{"name":"',
            name(),
            " #",
            number,
            '","description":"A relic whose metadata and image live on-chain, in data: URIs.","image":"data:image/svg+xml;base64,',
            Base64.encode(bytes(image)),
            '","attributes":[{"trait_type":"Storage","value":"on-chain"}]}'
        );
        return string.concat("data:application/json;base64,", Base64.encode(bytes(json)));
    }

    function _colour(uint256 id) private pure returns (string memory) {
        string[4] memory palette = ["b45309", "0f766e", "7c3aed", "be123c"];
        return palette[id % palette.length];
    }
}
