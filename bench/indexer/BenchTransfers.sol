// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// The indexer benchmark's transfer generator (compiled by bench/indexer/fill.ts, never committed
// as an artifact): many ERC-20 transfers between many holders in one transaction.

interface ITransfer {
    function transfer(address to, uint256 amount) external returns (bool);
}

/// Runtime code put at every holder's address (anvil_setCode): the holder sends its tokens when asked,
/// so each transfer's `from` is the holder itself, as when a wallet sends.
contract BenchHolder {
    function send(address token, address to, uint256 amount) external {
        require(ITransfer(token).transfer(to, amount), "transfer failed");
    }
}

contract BenchTransfers {
    /// Holder i's address: the low 20 bytes of keccak256(abi.encode(salt, i)).
    function holderAt(bytes32 salt, uint256 i) public pure returns (address) {
        return address(uint160(uint256(keccak256(abi.encode(salt, i)))));
    }

    /// `moves` packs 8 bytes per transfer: from (uint16), token index (uint8), to (uint16), amount in 1e12 units (uint24).
    function run(bytes32 salt, address[] calldata tokens, bytes calldata moves) external {
        for (uint256 p = 0; p + 8 <= moves.length; p += 8) {
            uint64 word = uint64(bytes8(moves[p:p + 8]));
            BenchHolder(holderAt(salt, word >> 48)).send(tokens[(word >> 40) & 0xff], holderAt(salt, (word >> 24) & 0xffff), uint256(word & 0xffffff) * 1e12);
        }
    }
}
