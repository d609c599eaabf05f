"""Integer helpers written once for both look-aheads: plain Python where they run, compiled into the kernel.

``compiled`` marks a helper whose body numba's subset allows (ints, bit operations, tuples of ints, loops). It
returns the function unchanged: the pure-Python rollout (the browser's worker too, where numba does not exist)
calls it at Python's speed, on ints of any width, and importing it never imports numba. ``kernel_impl`` calls
``teach_numba`` before it compiles anything: numba then compiles each marked helper's own body where the kernel
calls it (``numba.extending.overload``), and learns ``int.bit_length`` and ``int.bit_count``, which the helpers and
the kernel use as Python does. A compiled helper works on int64 masks: one deck's 52 bits.

numba's cache of the kernel is checked against ``kernel_impl.py`` alone, so ``kernel`` keeps a digest of the
helpers' files (``sources``) beside it and forgets a cache compiled from other helpers.

>>> from hartenjagen.shared.bots.thumb import top_rank
>>> top_rank in marked(), top_rank(0b1010)  # plain Python here: the higher of two clubs
(True, 8)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

_MARKED: list[Callable[..., Any]] = []
_taught = False


def compiled(f: F) -> F:
    """Mark ``f`` as a helper the kernel compiles too; return it unchanged (plain Python)."""
    _MARKED.append(f)
    return f


def marked() -> list[Callable[..., Any]]:
    """The helpers marked so far, in the order they were defined."""
    return list(_MARKED)


def sources() -> list[Path]:
    """The files the compiled helpers come from, this one included (``int.bit_length`` is taught here)."""
    return sorted({Path(__file__).resolve()} | {Path(f.__code__.co_filename).resolve() for f in _MARKED})


def teach_numba() -> None:
    """Let numba compile the marked helpers, and ``int.bit_length``/``int.bit_count`` (imports numba; once).

    numba has neither method of Python's ints: it gets them as the processor's instructions (LLVM's ``ctlz`` and
    ``ctpop``), counting a negative int's bits as Python does, by its absolute value.
    """
    global _taught
    if _taught:
        return
    # numba's compile-time API: what it hands these functions are its own types and LLVM's, read as Any here
    ir: Any = importlib.import_module("llvmlite.ir")
    types: Any = importlib.import_module("numba").types
    extending: Any = importlib.import_module("numba.extending")

    def ctlz(typingctx: Any, x: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

        return x(x), codegen

    def ctpop(typingctx: Any, x: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.ctpop(args[0])

        return x(x), codegen

    leading_zeros, ones = extending.intrinsic(ctlz), extending.intrinsic(ctpop)

    def bit_length(x: Any) -> Any:
        width = x.bitwidth

        def impl(x: int) -> int:
            return width - leading_zeros(-x if x < 0 else x)  # type: ignore[no-any-return]

        return impl

    def bit_count(x: Any) -> Any:
        def impl(x: int) -> int:
            return ones(-x if x < 0 else x)  # type: ignore[no-any-return]

        return impl

    extending.overload_method(types.Integer, "bit_length", strict=False)(bit_length)
    extending.overload_method(types.Integer, "bit_count", strict=False)(bit_count)
    for f in _MARKED:  # compile each helper's own body, for whatever argument types the kernel passes
        extending.overload(f, strict=False)(lambda *args, f=f: f)
    _taught = True
