"""Protocol errors: a stable code plus English and Dutch sentences, sent to one client only."""

from __future__ import annotations

from typing import Any

MESSAGES: dict[str, tuple[str, str]] = {
    "bad_json": ("Send one JSON object per text frame.", "Stuur één JSON-object per tekstbericht."),
    "unknown_type": ("Unknown message type {type}.", "Onbekend berichttype {type}."),
    "bad_message": ("Bad field {field}: {detail}.", "Fout veld {field}: {detail}."),
    "hello_first": ("Say hello first.", "Zeg eerst hallo (hello)."),
    "hello_once": (
        "This connection already said hello; open a new connection to be someone else.",
        "Deze verbinding heeft al hallo gezegd; open een nieuwe verbinding om iemand anders te zijn.",
    ),
    "bad_version": (
        "Protocol version {version} is not supported; this server speaks version 1.",
        "Protocolversie {version} wordt niet ondersteund; deze server spreekt versie 1.",
    ),
    "unknown_table": ("There is no table with code {table}.", "Er is geen tafel met code {table}."),
    "rate_limited": (
        "Too many unknown table codes; wait a minute.",
        "Te veel onbekende tafelcodes; wacht een minuut.",
    ),
    "table_full": (
        "This table has no free seat now; a computer player's seat can be taken between hands.",
        "Deze tafel heeft nu geen vrije stoel; de stoel van een computerspeler kun je tussen twee rondes overnemen.",
    ),
    "no_watching": ("Watching is not possible: {detail}.", "Meekijken kan niet: {detail}."),
    "seat_taken": ("Seat {seat} is not free.", "Stoel {seat} is niet vrij."),
    "bad_token": ("That seat token does not fit this table.", "Die stoelcode hoort niet bij deze tafel."),
    "already_seated": ("You already sit at table {table}; leave first.", "Je zit al aan tafel {table}; sta eerst op."),
    "not_seated": ("Join a table first.", "Ga eerst aan een tafel zitten."),
    "not_host": ("Only the host can do that.", "Alleen de host kan dat."),
    "no_host": (
        "A Play now table has no host: it starts by itself, and nobody changes its seats or settings for the others.",
        "Een Nu spelen-tafel heeft geen host: het spel begint vanzelf en niemand verandert er stoelen of instellingen "
        "voor de anderen.",
    ),
    "not_now": ("That is not possible now: {detail}.", "Dat kan nu niet: {detail}."),
    "seats_empty": ("Fill every seat before the start.", "Vul eerst alle stoelen."),
    "bad_option": ("Bad table option: {detail}.", "Foute tafeloptie: {detail}."),
    "illegal": ("{en}", "{nl}"),
    "chat_off": ("Chat is off at this table: {detail}.", "De chat staat uit aan deze tafel: {detail}."),
    "chat_limited": (
        "Not so fast: at most {count} chat messages {who} in {seconds} seconds.",
        "Niet zo snel: hoogstens {count} chatberichten {who} per {seconds} seconden.",
    ),
    "chat_busy": (
        "This table takes at most {count} chat messages in {seconds} seconds from everyone together; wait a moment.",
        "Deze tafel neemt van iedereen samen hoogstens {count} chatberichten per {seconds} seconden; wacht even.",
    ),
    "players_limited": (
        "Many new players came from your address in the last minute (at most {count}); wait a minute, please.",
        "Er kwamen de laatste minuut veel nieuwe spelers van jouw adres (hoogstens {count}); wacht even een minuut.",
    ),
    "tables_limited": (
        "Many new tables were opened from your address in the last minute (at most {count}); wait a minute, please.",
        "Er werden de laatste minuut veel nieuwe tafels geopend vanaf jouw adres (hoogstens {count}); wacht even een "
        "minuut.",
    ),
    "cluster_unavailable": (
        "The cluster's directory does not answer: no new table, and no table on another node, for now. "
        "Tables already playing go on; try again soon.",
        "De lijst van het cluster antwoordt niet: even geen nieuwe tafel en geen tafel op een andere node. "
        "Lopende tafels spelen door; probeer zo weer.",
    ),
    "review_limited": (
        "You asked for many reviews lately; a review costs the server seconds of work. Try again in a few minutes.",
        "Je vroeg de laatste tijd veel analyses; een analyse kost de server seconden werk. Probeer het over een paar "
        "minuten opnieuw.",
    ),
    "review_busy": (
        "Many reviews are waiting right now; try again in a minute.",
        "Er wachten nu veel analyses; probeer het over een minuut opnieuw.",
    ),
    "server_busy": (
        "The database does not answer right now; nothing was changed. Reconnecting by itself.",
        "De database antwoordt nu niet; er is niets veranderd. Er wordt vanzelf opnieuw verbonden.",
    ),
    "server_error": ("The server could not handle that message.", "De server kon dat bericht niet verwerken."),
    "claim_refused": ("That claim does not hold: {detail}.", "Die claim klopt niet: {detail}."),
    "unknown_device_code": (
        "That code is not valid: it may be mistyped, used already or older than ten minutes.",
        "Die code geldt niet: misschien verkeerd getypt, al gebruikt of ouder dan tien minuten.",
    ),
    "device_codes_limited": (
        "Too many device codes lately; wait a few minutes.",
        "De laatste tijd te veel apparaatcodes; wacht een paar minuten.",
    ),
    "bad_name": (
        "That name is not allowed here; choose another name, please.",
        "Die naam kan hier niet; kies alsjeblieft een andere naam.",
    ),
    "removed_here": (
        "The host removed you from this table; you cannot sit here again.",
        "De host heeft je van deze tafel gehaald; je kunt hier niet meer gaan zitten.",
    ),
    "play_now_limited": (
        "You pressed Play now often lately; wait a minute.",
        "Je drukte de laatste tijd vaak op Nu spelen; wacht een minuut.",
    ),
    "reports_limited": (
        "Several reports were sent from here this hour; the ones sent are kept. Try again later.",
        "Er zijn dit uur al een paar meldingen vanaf hier gestuurd; die zijn bewaard. Probeer het later opnieuw.",
    ),
}


class ProtocolError(Exception):
    """A refused message: ``code`` is stable, the sentences are for people, nothing was changed."""

    def __init__(self, code: str, *, field: str | None = None, reason: dict | None = None, **params: Any) -> None:
        en, nl = MESSAGES[code]
        params = {"field": field, **params, **(reason or {})}
        self.code = code
        self.field = field
        self.reason = reason
        # a parameter given as (English, Dutch) goes into each sentence in its own language
        self.message = en.format(**{k: v[0] if isinstance(v, tuple) else v for k, v in params.items()})
        self.nl = nl.format(**{k: v[1] if isinstance(v, tuple) else v for k, v in params.items()})
        super().__init__(f"{self.message} [{code}]")

    def to_message(self) -> dict[str, Any]:
        """Return the ``error`` message for the client."""
        out: dict[str, Any] = {"type": "error", "code": self.code, "message": self.message, "nl": self.nl}
        if self.field is not None:
            out["field"] = self.field
        if self.reason is not None:
            out["reason"] = self.reason
        return out
