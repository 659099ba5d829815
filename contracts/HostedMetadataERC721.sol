// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {IERC165} from "@openzeppelin/contracts/interfaces/IERC165.sol";
import {IERC4906} from "@openzeppelin/contracts/interfaces/IERC4906.sol";

/// @notice An ERC-721 whose metadata lives under a base URI its owner sets: the local world points it
/// at the site that serves the JSON and images, so it changes with the site's origin. Each change is
/// announced with ERC-4906 `BatchMetadataUpdate` over every token, as metadata indexers expect.
abstract contract HostedMetadataERC721 is ERC721, Ownable, IERC4906 {
    string public baseURI;

    constructor(string memory name_, string memory symbol_, address owner_) ERC721(name_, symbol_) Ownable(owner_) {}

    function setBaseURI(string calldata base) external onlyOwner {
        baseURI = base;
        emit BatchMetadataUpdate(0, type(uint256).max);
    }

    function supportsInterface(bytes4 interfaceId) public view virtual override(ERC721, IERC165) returns (bool) {
        return interfaceId == bytes4(0x49064906) || super.supportsInterface(interfaceId);
    }
}
