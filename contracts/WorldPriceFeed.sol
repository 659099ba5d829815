// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// @notice A price feed of the local world, read as Chainlink's are: AggregatorV3Interface exactly
/// (decimals, description, version, getRoundData, latestRoundData). Its owner (the world's deployer)
/// submits answers; each submission is a new round, answered in that round, and every past round is
/// kept. The constructor submits the first answer, so a deployed feed always has a round.
contract WorldPriceFeed is Ownable {
    struct Round {
        int256 answer;
        uint256 startedAt;
        uint256 updatedAt;
    }

    /// @notice Chainlink's AggregatorInterface events, which indexers of feeds follow.
    event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt);
    event NewRound(uint256 indexed roundId, address indexed startedBy, uint256 startedAt);

    uint8 public immutable decimals;
    uint256 public constant version = 1;
    string public description;
    uint80 private _latestRound;
    mapping(uint80 roundId => Round) private _rounds;

    constructor(uint8 decimals_, string memory description_, address owner_, int256 initialAnswer) Ownable(owner_) {
        decimals = decimals_;
        description = description_;
        _submit(initialAnswer, owner_);
    }

    /// @notice Starts a new round answered with `answer` at this block's time.
    function submit(int256 answer) external onlyOwner {
        _submit(answer, msg.sender);
    }

    /// @notice The id of the latest round (rounds count from 1), as Chainlink's AggregatorInterface.
    function latestRound() external view returns (uint256) {
        return _latestRound;
    }

    function getRoundData(uint80 roundId)
        external
        view
        returns (uint80, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        return _roundData(roundId);
    }

    function latestRoundData()
        external
        view
        returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        return _roundData(_latestRound);
    }

    function _submit(int256 answer, address startedBy) private {
        uint80 roundId = _latestRound + 1;
        _latestRound = roundId;
        _rounds[roundId] = Round(answer, block.timestamp, block.timestamp);
        emit NewRound(roundId, startedBy, block.timestamp);
        emit AnswerUpdated(answer, roundId, block.timestamp);
    }

    /// @dev A round that was never submitted reverts with Chainlink's message.
    function _roundData(uint80 roundId) private view returns (uint80, int256, uint256, uint256, uint80) {
        Round storage round = _rounds[roundId];
        require(round.updatedAt > 0, "No data present");
        return (roundId, round.answer, round.startedAt, round.updatedAt, roundId);
    }
}
