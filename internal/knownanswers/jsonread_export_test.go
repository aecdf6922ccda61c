package knownanswers

// What the tests of package knownanswers_test read of the known upgrades' JSON reader.

// StateMsgPack is the known upgrades' transcoding of a JSON state.
var StateMsgPack = stateMsgPack

// StateMsgPackReference is that transcoding with the json.Decoder reader it had before.
var StateMsgPackReference = stateMsgPackReference

// TreeMsgPack is the transcoding by way of the JSON's tree, which the stream goes before.
var TreeMsgPack = treeMsgPack
