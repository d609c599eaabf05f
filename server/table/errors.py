"""Protocol errors: a stable code and its parameters, sent to one client only; the client words them.

The sentences live in the client's translation tables (``client/js/i18n/``, keys ``error_<code>`` and
``problem_<problem>``); docs/protocol.md lists every code with its parameters.
"""

from __future__ import annotations

from typing import Any

from . import outgoing

#: The error codes a limit answers with: each refusal counts in ``hearts_refused_total{limit}`` (server/metrics.py).
LIMITED = frozenset({
    "players_limited", "device_codes_limited", "rate_limited", "tables_limited", "play_now_limited",
    "chat_limited", "chat_limited_address", "chat_busy", "reports_limited", "review_limited", "review_busy",
    "no_watching_full",
})  # fmt: skip

#: Every error code the server sends, with the names of its parameters (``field`` and ``reason`` come apart).
CODES: dict[str, tuple[str, ...]] = {
    # the frame and its fields
    "bad_json": (),
    "unknown_type": ("sent",),
    "bad_message": ("problem",),  # and the problem's own parameters (PROBLEMS)
    "bad_option": ("problem",),
    # who the connection is
    "hello_first": (),
    "hello_once": (),
    "bad_version": ("version",),
    "bad_name": (),
    "players_limited": ("count",),
    "unknown_device_code": (),
    "device_codes_limited": (),
    # finding, opening and sitting at a table
    "unknown_table": ("table",),
    "rate_limited": (),
    "table_full": (),
    "seat_taken": ("seat",),
    "bad_token": (),
    "already_seated": ("table",),
    "not_seated": (),
    "removed_here": (),
    "tables_limited": ("count",),
    "play_now_limited": (),
    "cluster_unavailable": (),
    "server_busy": (),
    "server_error": (),
    "no_watching_daily": (),
    "no_watching_off": (),
    "no_watching_full": ("count",),
    "seats_before_start": (),
    # the host's commands
    "not_host": (),
    "no_host": (),
    "seats_empty": (),
    "started_already": (),
    "computers_before_start": (),
    "no_computer_there": ("seat",),
    "no_other_person": ("seat",),
    "remove_between_hands": (),
    "daily_alone": (),
    "daily_no_restart": (),
    "rated_no_restart": (),
    "not_started": (),
    "new_game_after_game_over": (),
    # playing
    "no_game": (),
    "illegal": (),  # the game core's ``reason``
    "ready_between_hands": (),
    "hint_not_your_move": (),
    "claim_fails": (),
    "claim_turn": (),
    "claim_unsure": (),
    "claim_variant": (),
    "rematch_after_game_over": (),
    "not_offline": (),
    # chat, reports and reviews
    "chat_off_by_host": (),
    "chat_off_by_vote": (),
    "chat_off_by_you": (),
    "chat_limited": ("count", "seconds"),
    "chat_limited_address": ("count", "seconds"),
    "chat_busy": ("count", "seconds"),
    "reports_limited": (),
    "review_after_hand": (),
    "review_needs_server": (),
    "review_limited": (),
    "review_busy": (),
}

#: What is wrong with a field (``bad_message``) or a table option (``bad_option``), with its parameters.
PROBLEMS: dict[str, tuple[str, ...]] = {
    "missing": (),
    "whole_number": (),
    "int_range": ("low", "high"),
    "seconds": (),
    "text": (),
    "text_length": ("max",),
    "text_or_phrase": (),
    "one_of": ("choices",),
    "table_code": ("length",),
    "card": (),
    "cards": (),
    "options": (),
    "true": (),
    "bool": (),
    "device_code": ("length",),
    "device_id": (),
    "seat_range": ("last",),
    "unknown_option": ("variant",),
    "no_passing": ("variant",),
    "options_together": (),
    "play_now_deal": (),
}


class FieldProblem(ValueError):
    """A field's value refused by its check: a ``PROBLEMS`` code and its parameters (``bad_message``)."""

    def __init__(self, problem: str, **params: Any) -> None:
        if set(params) - set(PROBLEMS[problem]):
            raise TypeError(f"problem {problem!r} takes {PROBLEMS[problem]}, not {sorted(params)}")
        super().__init__(problem)
        self.problem = problem
        self.params = params


class ProtocolError(Exception):
    """A refused message: ``code`` is stable, ``params`` fill in the client's sentence; nothing was changed."""

    def __init__(self, code: str, *, field: str | None = None, reason: dict | None = None, **params: Any) -> None:
        allowed = set(CODES[code]) | set(PROBLEMS.get(params.get("problem", ""), ()))
        if set(params) - allowed:
            raise TypeError(f"error {code!r} takes {sorted(allowed)}, not {sorted(params)}")
        self.code = code
        self.field = field
        self.reason = reason
        self.params = params
        super().__init__(f"{code} {params}" if params else code)

    @classmethod
    def of_field(cls, code: str, field: str, problem: FieldProblem) -> ProtocolError:
        """Return ``code`` (``bad_message`` or ``bad_option``) for ``field`` with the problem its check found."""
        return cls(code, field=field, problem=problem.problem, **problem.params)

    def to_message(self) -> dict[str, Any]:
        """Return the ``error`` message for the client: the code, its parameters, the field and the core's reason."""
        return outgoing.error(self.code, self.params, self.field, self.reason)
