"""Encoding immutable game states (frozen dataclasses) to JSON-ready data and back.

A state is built from frozen dataclasses, tuples, ``X | None`` and JSON scalars.
``encode`` walks the value; ``decoder_for`` reads the dataclass type hints once per
type and builds a decoding function, so that games need no hand-written codec and
``decode(encode(state)) == state`` holds by construction. Dicts are not allowed in
states (they are mutable); use tuples of pairs or small dataclasses instead.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from functools import cache
from typing import Any

Decoder = Callable[[Any], Any]


def encode(value: Any) -> Any:
    """JSON-ready data for a state or any part of one."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, tuple):
        return [encode(item) for item in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {field.name: encode(getattr(value, field.name)) for field in _fields(type(value))}
    raise TypeError(f"cannot encode {type(value).__name__} in a game state")


@cache
def _fields(cls: type) -> tuple[dataclasses.Field[Any], ...]:
    return dataclasses.fields(cls)


class DecodeError(ValueError):
    """The data does not describe a state of this type."""


def decode(cls: type, data: Any) -> Any:
    try:
        return decoder_for(cls)(data)
    except DecodeError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise DecodeError(f"not a valid {cls.__name__}: {error}") from error


@cache
def decoder_for(hint: Any) -> Decoder:
    """A function that turns encoded data back into a value of type ``hint``."""
    if hint is type(None):
        return _expect_none
    if hint in (bool, int, float, str):
        return _scalar(hint)
    if hint is Any:
        return _identity
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return _union([decoder_for(arg) for arg in args])
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            item = decoder_for(args[0])
            return lambda data: tuple(item(value) for value in _as_list(data))
        parts = [decoder_for(arg) for arg in args]
        return lambda data: _fixed_tuple(parts, _as_list(data))
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _dataclass_decoder(hint)
    raise TypeError(f"unsupported type in a game state: {hint!r}")


def _dataclass_decoder(cls: type) -> Decoder:
    hints = typing.get_type_hints(cls)
    names = [field.name for field in dataclasses.fields(cls)]
    decoders = {name: decoder_for(hints[name]) for name in names}

    def decode_dataclass(data: Any) -> Any:
        if not isinstance(data, dict):
            raise DecodeError(f"{cls.__name__} must be an object")
        if set(data) != set(names):
            raise DecodeError(f"{cls.__name__} fields differ: {sorted(set(data) ^ set(names))}")
        return cls(**{name: decoders[name](data[name]) for name in names})

    return decode_dataclass


def _scalar(kind: type) -> Decoder:
    def decode_scalar(data: Any) -> Any:
        if kind is float and type(data) is int:
            return float(data)
        if type(data) is not kind:
            raise DecodeError(f"expected {kind.__name__}, got {type(data).__name__}")
        return data

    return decode_scalar


def _union(options: list[Decoder]) -> Decoder:
    def decode_union(data: Any) -> Any:
        for option in options:
            try:
                return option(data)
            except DecodeError:
                continue
        raise DecodeError(f"no type of the union accepts {data!r}")

    return decode_union


def _expect_none(data: Any) -> None:
    if data is not None:
        raise DecodeError("expected null")


def _identity(data: Any) -> Any:
    return data


def _as_list(data: Any) -> list[Any]:
    if not isinstance(data, list):
        raise DecodeError("expected a list")
    return data


def _fixed_tuple(parts: list[Decoder], data: list[Any]) -> tuple[Any, ...]:
    if len(parts) != len(data):
        raise DecodeError(f"expected {len(parts)} items, got {len(data)}")
    return tuple(part(value) for part, value in zip(parts, data, strict=True))
