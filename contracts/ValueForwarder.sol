// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice Forwards the ether it is sent to other addresses, each send a call inside the transaction:
/// what the chain's call traces show as internal transfers (crucible_getAssetTransfers' "internal").
/// `relay` sends through the forwarder itself, so one internal transfer leads to others, and
/// `forwardAllowingRefusals` goes on past a recipient that refuses ether: that call reverts inside a
/// transaction that succeeds, and its ether stays here.
contract ValueForwarder {
    error LengthMismatch();
    error AmountMismatch(uint256 sent, uint256 forwarded);
    error Refused(address to, uint256 amount);

    /// @notice Sends amounts[i] to recipients[i]; the amounts add up to the ether sent, and every recipient must take its share.
    function forward(address payable[] calldata recipients, uint256[] calldata amounts) public payable {
        uint256 total = _checked(recipients, amounts);
        for (uint256 i = 0; i < recipients.length; i++) {
            (bool ok, ) = recipients[i].call{value: amounts[i]}("");
            if (!ok) revert Refused(recipients[i], amounts[i]);
        }
        if (total != msg.value) revert AmountMismatch(msg.value, total);
    }

    /// @notice forward, called on this contract by itself with the ether sent: an internal transfer to the forwarder, then one per recipient.
    function relay(address payable[] calldata recipients, uint256[] calldata amounts) external payable {
        this.forward{value: msg.value}(recipients, amounts);
    }

    /// @notice As forward, but a recipient that refuses is skipped: its share stays here. Returns how much was refused.
    function forwardAllowingRefusals(address payable[] calldata recipients, uint256[] calldata amounts) external payable returns (uint256 refused) {
        uint256 total = _checked(recipients, amounts);
        if (total != msg.value) revert AmountMismatch(msg.value, total);
        for (uint256 i = 0; i < recipients.length; i++) {
            (bool ok, ) = recipients[i].call{value: amounts[i]}("");
            if (!ok) refused += amounts[i];
        }
    }

    function _checked(address payable[] calldata recipients, uint256[] calldata amounts) private pure returns (uint256 total) {
        if (recipients.length != amounts.length) revert LengthMismatch();
        for (uint256 i = 0; i < amounts.length; i++) total += amounts[i];
    }
}
