"""The engine conformance checks, as plain functions that raise ``AssertionError``.

``tests/engine/test_conformance.py`` runs them over every registered game; its
self-tests run them over deliberately broken games to show that each can fail.
The contract they check is ../shared/design/engine-contract.md. One module per
part of the contract: ``facts``, ``determinism``, ``actions``, ``results``,
``codec``, ``views`` (sampling and leaks included) and ``reveal`` (everything
revealed, for finished matches); ``common`` holds the budget and the playouts every
check looks at.
"""
