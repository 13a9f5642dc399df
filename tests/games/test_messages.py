"""The websocket's message parser (games/messages.py): every malformed shape gets the error
code and message docs/protocol.md documents, and a well-formed message its typed object."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import errors, messages
from games.engine import Bid, Pass, Play, parse_card

MAX = 4096


def parse(message: Any) -> messages.Message:
    return messages.parse(
        message if isinstance(message, str) or message is None else json.dumps(message),
        max_size=MAX,
    )


def refusal(message: Any) -> tuple[str, str]:
    with pytest.raises(messages.Unparsable) as caught:
        parse(message)
    return caught.value.code, caught.value.message


ACTION = {"type": "action", "id": "a1", "version": 3, "action": {"type": "pass"}}


@pytest.mark.parametrize(
    ("message", "code", "text"),
    [
        (None, "malformed", "send JSON text frames"),
        (json.dumps({"type": "ping", "pad": "x" * MAX}), "too_large", "a message is at most 4096 bytes"),
        ("{not json", "malformed", "not valid JSON, or nested too deeply"),
        ("[" * 4000, "malformed", "not valid JSON, or nested too deeply"),
        (["a", "list"], "malformed", 'a message is a JSON object with a "type"'),
        ({"id": "x"}, "malformed", 'a message is a JSON object with a "type"'),
        ({"type": 7}, "malformed", 'a message is a JSON object with a "type"'),
        ({"type": "ping", "id": ["x"]}, "malformed", "id must be a string"),
        ({"type": "ping", "id": 1.5}, "malformed", "id must be a string"),
        ({"type": "shout"}, "unknown_type", "unknown message type 'shout'"),
        ({"type": "action", "id": "a", "version": 0}, "malformed", 'an action message needs "action"'),
        ({**ACTION, "action": "pass"}, "malformed", "an action must be an object"),
        ({**ACTION, "action": None}, "malformed", "an action must be an object"),
        ({**ACTION, "action": ["pass"]}, "malformed", "an action must be an object"),
        ({**ACTION, "action": {"kind": "pass"}}, "malformed", "an action needs a string 'type'"),
        ({**ACTION, "action": {"type": "fly"}}, "malformed", "unknown action type 'fly'"),
        ({**ACTION, "action": {"type": "bid"}}, "malformed", None),
        ({**ACTION, "action": {"type": "play", "card": "ZZ"}}, "malformed", None),
        ({"type": "action", "id": "a", "action": {"type": "pass"}}, "malformed", "version must be a number"),
        ({**ACTION, "version": "1"}, "malformed", "version must be a number"),
        ({**ACTION, "version": True}, "malformed", "version must be a number"),
        ({**ACTION, "version": 1.0}, "malformed", "version must be a number"),
        ({**ACTION, "id": ""}, "malformed", "id must be a string of 1 to 64 characters"),
        ({**ACTION, "id": "x" * 65}, "malformed", "id must be a string of 1 to 64 characters"),
        ({"type": "seed", "dealing": 1}, "invalid_seed", "a client seed must be a string"),
        ({"type": "seed", "dealing": 1, "seed": 7}, "invalid_seed", "a client seed must be a string"),
        ({"type": "seed", "dealing": 1, "seed": ""}, "invalid_seed", "a client seed must be 1 to 128 characters long"),
        ({"type": "seed", "dealing": 1, "seed": "x" * 129}, "invalid_seed", "a client seed must be 1 to 128 characters long"),
        ({"type": "seed", "dealing": 1, "seed": "a\nb"}, "invalid_seed", "a client seed must not contain control characters (U+000A)"),
        ({"type": "seed", "dealing": "1", "seed": "luck"}, "malformed", "dealing must be a number"),
        ({"type": "seed", "seed": "luck"}, "malformed", "dealing must be a number"),
        ({"type": "seed", "dealing": False, "seed": "luck"}, "malformed", "dealing must be a number"),
        ({"type": "seed", "dealing": "1", "seed": "x" * 129}, "invalid_seed", "a client seed must be 1 to 128 characters long"),
    ],
    ids=["binary frame", "too large", "not json", "nested too deeply", "not an object",
         "no type", "type not a string", "id a list", "id a fraction", "unknown type",
         "action without action", "action a string", "action null", "action a list",
         "action without a type", "unknown action type", "bid without value", "bad card",
         "no version", "version a string", "version a boolean", "version a fraction",
         "empty id", "id too long", "no seed", "seed a number", "empty seed", "seed too long",
         "seed with a control character", "dealing a string", "no dealing",
         "dealing a boolean", "the seed is checked before the dealing"],
)  # fmt: skip
def test_a_malformed_message_gets_its_documented_error(
    message: Any, code: str, text: str | None
) -> None:
    got_code, got_text = refusal(message)
    assert got_code == code and (text is None or got_text == text)


def test_a_parse_error_is_the_documented_errors_kind_and_status() -> None:
    with pytest.raises(messages.Unparsable) as caught:
        parse(json.dumps({"type": "ping", "pad": "x" * MAX}))
    error = caught.value
    assert (
        isinstance(error, errors.TableError),
        isinstance(error.documented, errors.TooLarge),
        error.status,
    ) == (True, True, 413)


def test_an_action_message_is_parsed_into_its_typed_action() -> None:
    message = parse({**ACTION, "action": {"type": "bid", "value": 110}})
    assert message == messages.ActionMessage(id="a1", version=3, action=Bid(110))


def test_an_action_with_a_card_carries_the_card() -> None:
    message = parse({**ACTION, "action": {"type": "play", "card": "QS"}})
    assert isinstance(message, messages.ActionMessage) and message.action == Play(parse_card("QS"))


def test_a_numeric_id_is_echoed_as_a_number_and_remembered_as_text() -> None:
    message = parse({**ACTION, "id": 19})
    assert isinstance(message, messages.ActionMessage)
    assert (message.id, message.client_id, message.action) == (19, "19", Pass())


def test_an_action_without_an_id_has_no_client_id() -> None:
    message = parse({"type": "action", "version": 0, "action": {"type": "pass"}})
    assert isinstance(message, messages.ActionMessage) and message.client_id is None


@pytest.mark.parametrize(
    ("message", "parsed"),
    [
        ({"type": "seed", "id": "s", "dealing": 2, "seed": "my luck"},
         messages.SeedMessage(id="s", dealing=2, seed="my luck")),
        ({"type": "back", "id": "b1"}, messages.BackMessage(id="b1")),
        ({"type": "sync"}, messages.SyncMessage(id=None)),
        ({"type": "ping", "id": "p" * 100}, messages.PingMessage(id="p" * 100)),
    ],
    ids=["seed", "back", "sync", "ping with a long id"],
)  # fmt: skip
def test_each_message_type_is_parsed_into_its_object(message: Any, parsed: Any) -> None:
    assert parse(message) == parsed


def test_an_unknown_type_is_refused_after_its_id_is_read() -> None:
    frame = messages.read_frame(json.dumps({"type": "shout", "id": "m-7"}), max_size=MAX)
    with pytest.raises(messages.Unparsable) as caught:
        messages.parse_frame(frame)
    assert (frame.id, caught.value.code) == ("m-7", "unknown_type")


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3)
    ),
    max_leaves=8,
)
FIELDS = st.sampled_from(["type", "id", "version", "action", "dealing", "seed"])
TYPES = st.sampled_from([*messages.TYPES, "shout"])


@given(
    st.fixed_dictionaries({"type": TYPES})
    | st.dictionaries(FIELDS, JSON, max_size=5)
    | st.builds(lambda t, rest: {**rest, "type": t}, TYPES, st.dictionaries(FIELDS, JSON, max_size=5))
)  # fmt: skip
def test_any_json_object_is_a_message_or_a_documented_refusal(data: dict[str, Any]) -> None:
    assert outcome(data) in {"parsed", "malformed", "unknown_type", "invalid_seed"}


def outcome(data: dict[str, Any]) -> str:
    """ "parsed", or the code of the refusal (any other exception propagates)."""
    try:
        parse(data)
    except messages.Unparsable as exc:
        return exc.code
    return "parsed"
