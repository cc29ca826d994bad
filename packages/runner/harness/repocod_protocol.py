"""The protocol between repocod-kit's runner and these plugins, loaded from repocod_protocol.json.

The runner (TypeScript, src/harness-protocol.ts) loads the same file: the environment variables a run
gets (ENV, by role) and the fields of the JSON exchanged. A plugin checks each plan it reads with
check_shape, so a runner and a harness that disagree fail with the field named, not with a KeyError.
"""
import json
import os

_PROTOCOL_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "repocod_protocol.json")
with open(_PROTOCOL_FILE, encoding="utf-8") as _file:
    PROTOCOL = json.load(_file)

ENV = PROTOCOL["environment"]


def missing_fields(shape, value):
    """The fields of `shape` that `value` lacks (all of them when it is not a JSON object)."""
    fields = PROTOCOL["shapes"][shape]
    if not isinstance(value, dict):
        return list(fields)
    return [field for field in fields if field not in value]


def check_shape(shape, value, where):
    """Raises ValueError naming the missing fields of `shape` and where the value came from."""
    missing = missing_fields(shape, value)
    if missing:
        fields = ", ".join(missing)
        raise ValueError(f"{where}: a {shape} without {fields} (the harness protocol, repocod_protocol.json)")
