// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {IERC1155} from "@openzeppelin/contracts/token/ERC1155/IERC1155.sol";
import {Address} from "@openzeppelin/contracts/utils/Address.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {IERC165} from "@openzeppelin/contracts/utils/introspection/IERC165.sol";

/// @notice A small NFT marketplace (docs/nft-data.md#the-marketplace-contract). A seller lists an
/// ERC-721 token, or a quantity of an ERC-1155 token, at a unit price in the native currency
/// (`currency` 0) or in an ERC-20; a buyer takes all or part of an open listing and pays in the same
/// call, split between the seller, the marketplace's fee and the collection's royalty. The NFT stays
/// with the seller until it is sold (the seller approves this contract), and no payment stays here.
/// Every change of a listing is an event, so an indexer follows listings and sales from logs alone.
contract CrucibleMarketplace is Ownable, ReentrancyGuard {
    using SafeERC20 for IERC20;

    /// @notice Ceilings of the marketplace fee and of a royalty, in basis points (10%).
    uint16 public constant MAX_FEE_BPS = 1000;
    uint16 public constant MAX_ROYALTY_BPS = 1000;
    /// @notice The largest quantity one listing may hold: exact as a JavaScript number, as indexers read it.
    uint256 public constant MAX_QUANTITY = 2 ** 53 - 1;

    bytes4 private constant ERC721_INTERFACE = 0x80ac58cd;
    bytes4 private constant ERC1155_INTERFACE = 0xd9b67a26;

    enum Standard {
        ERC721,
        ERC1155
    }

    struct Listing {
        address seller;
        Standard standard;
        address collection;
        uint256 tokenId;
        /// @dev Listed; `sold` of it are sold.
        uint256 quantity;
        uint256 sold;
        /// @dev address(0): the chain's native currency.
        address currency;
        uint256 unitPrice;
        bool cancelled;
    }

    struct Royalty {
        address receiver;
        uint16 bps;
    }

    address public feeRecipient;
    uint16 public feeBps;
    /// @notice Listings are numbered from 1, in the order they are made.
    uint256 public listingCount;
    mapping(uint256 listingId => Listing) public listings;
    /// @notice The royalty of each collection, set by the owner (none: receiver 0).
    mapping(address collection => Royalty) public royalties;

    event Listed(
        uint256 indexed listingId,
        address indexed seller,
        address indexed collection,
        uint256 tokenId,
        uint256 quantity,
        address currency,
        uint256 unitPrice
    );
    event Cancelled(uint256 indexed listingId, address indexed seller);
    /// @notice `price` is what the buyer paid (unit price times quantity); the seller got price - marketplaceFee - royaltyFee.
    event Sold(
        uint256 indexed listingId,
        address indexed buyer,
        address indexed seller,
        address collection,
        uint256 tokenId,
        uint256 quantity,
        address currency,
        uint256 price,
        uint256 marketplaceFee,
        address royaltyReceiver,
        uint256 royaltyFee
    );
    event FeeChanged(address recipient, uint16 bps);
    event RoyaltyChanged(address indexed collection, address receiver, uint16 bps);

    error InvalidQuantity();
    error InvalidPrice();
    error UnsupportedCollection(address collection);
    error NotHeld();
    error NotApproved();
    error NotSeller();
    error NotOpen(uint256 listingId);
    error WrongPayment(uint256 expected, uint256 sent);
    error FeeTooHigh(uint16 bps);

    constructor(address owner_, address feeRecipient_, uint16 feeBps_) Ownable(owner_) {
        _setFee(feeRecipient_, feeBps_);
    }

    function setFee(address recipient, uint16 bps) external onlyOwner {
        _setFee(recipient, bps);
    }

    function setRoyalty(address collection, address receiver, uint16 bps) external onlyOwner {
        if (bps > MAX_ROYALTY_BPS) revert FeeTooHigh(bps);
        royalties[collection] = Royalty(receiver, bps);
        emit RoyaltyChanged(collection, receiver, bps);
    }

    /// @notice Lists `quantity` of `tokenId` (1 for an ERC-721) at `unitPrice` each; the caller holds them and has approved this contract.
    function list(address collection, uint256 tokenId, uint256 quantity, address currency, uint256 unitPrice) external returns (uint256 listingId) {
        if (quantity == 0 || quantity > MAX_QUANTITY) revert InvalidQuantity();
        if (unitPrice == 0) revert InvalidPrice();
        Standard standard;
        if (_supports(collection, ERC721_INTERFACE)) {
            if (quantity != 1) revert InvalidQuantity();
            IERC721 nft = IERC721(collection);
            if (nft.ownerOf(tokenId) != msg.sender) revert NotHeld();
            if (!nft.isApprovedForAll(msg.sender, address(this)) && nft.getApproved(tokenId) != address(this)) revert NotApproved();
            standard = Standard.ERC721;
        } else if (_supports(collection, ERC1155_INTERFACE)) {
            IERC1155 nft = IERC1155(collection);
            if (nft.balanceOf(msg.sender, tokenId) < quantity) revert NotHeld();
            if (!nft.isApprovedForAll(msg.sender, address(this))) revert NotApproved();
            standard = Standard.ERC1155;
        } else {
            revert UnsupportedCollection(collection);
        }
        listingId = ++listingCount;
        listings[listingId] = Listing(msg.sender, standard, collection, tokenId, quantity, 0, currency, unitPrice, false);
        emit Listed(listingId, msg.sender, collection, tokenId, quantity, currency, unitPrice);
    }

    /// @notice Closes an open listing of the caller's.
    function cancel(uint256 listingId) external {
        Listing storage listing = listings[listingId];
        if (listing.seller != msg.sender) revert NotSeller();
        if (listing.cancelled || listing.sold == listing.quantity) revert NotOpen(listingId);
        listing.cancelled = true;
        emit Cancelled(listingId, msg.sender);
    }

    /// @notice Buys `quantity` of an open listing, paying unit price times quantity: as the call's value in the
    /// native currency, or drawn from the caller's approved ERC-20.
    function buy(uint256 listingId, uint256 quantity) external payable nonReentrant {
        Listing storage listing = listings[listingId];
        if (listing.seller == address(0) || listing.cancelled) revert NotOpen(listingId);
        if (quantity == 0 || quantity > listing.quantity - listing.sold) revert InvalidQuantity();
        listing.sold += quantity;

        uint256 price = listing.unitPrice * quantity;
        Royalty memory royalty = royalties[listing.collection];
        uint256 fee = (price * feeBps) / 10_000;
        uint256 royaltyFee = royalty.receiver == address(0) ? 0 : (price * royalty.bps) / 10_000;
        address seller = listing.seller;

        if (listing.standard == Standard.ERC721) IERC721(listing.collection).safeTransferFrom(seller, msg.sender, listing.tokenId);
        else IERC1155(listing.collection).safeTransferFrom(seller, msg.sender, listing.tokenId, quantity, "");

        if (listing.currency == address(0)) {
            if (msg.value != price) revert WrongPayment(price, msg.value);
            Address.sendValue(payable(seller), price - fee - royaltyFee);
            if (fee > 0) Address.sendValue(payable(feeRecipient), fee);
            if (royaltyFee > 0) Address.sendValue(payable(royalty.receiver), royaltyFee);
        } else {
            if (msg.value != 0) revert WrongPayment(0, msg.value);
            IERC20 currency = IERC20(listing.currency);
            currency.safeTransferFrom(msg.sender, seller, price - fee - royaltyFee);
            if (fee > 0) currency.safeTransferFrom(msg.sender, feeRecipient, fee);
            if (royaltyFee > 0) currency.safeTransferFrom(msg.sender, royalty.receiver, royaltyFee);
        }
        emit Sold(
            listingId,
            msg.sender,
            seller,
            listing.collection,
            listing.tokenId,
            quantity,
            listing.currency,
            price,
            fee,
            royalty.receiver,
            royaltyFee
        );
    }

    function _setFee(address recipient, uint16 bps) private {
        if (bps > MAX_FEE_BPS) revert FeeTooHigh(bps);
        feeRecipient = recipient;
        feeBps = bps;
        emit FeeChanged(recipient, bps);
    }

    /// @dev ERC-165, asked without trusting the answer's shape: a contract without it supports nothing.
    function _supports(address collection, bytes4 interfaceId) private view returns (bool) {
        try IERC165(collection).supportsInterface(interfaceId) returns (bool supported) {
            return supported;
        } catch {
            return false;
        }
    }
}
