"""Player names checked for the obvious abuse: a short list of words no name may hold, which the operator extends.

The check folds case, accents and the usual look-alike digits and signs (``0`` for o, ``1`` for i, ``@`` for a,
...) and ignores spaces, dots and dashes between the letters, so "K.a n-k3r" is caught like "kanker". Some words
only match as a word, so "Shitake" is no "shit" but "shit" and "sh1t" are. Names that pose as the house
("admin", "moderator", "Hartenjagen") are refused too.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

#: Words no name may hold anywhere in it (English and Dutch), and words it may not hold as a word of its own
#: (they sit inside harmless words: "catering", "badminton", "Shitake").
ANYWHERE = (
    "kanker", "klootzak", "mongool", "flikker", "nigger", "nigga", "faggot", "whore", "bitch", "fucker", "fucking",
    "bullshit", "pussy", "hitler", "retard", "moderator", "hartenjagen",
)  # fmt: skip
AS_WORD = (
    "tyfus", "tering", "hoer", "slet", "kut", "lul", "neger", "fag", "cunt", "slut", "fuck", "shit", "dick", "cock",
    "rape", "nazi", "admin",
)  # fmt: skip
LOOK_ALIKES = str.maketrans({"0": "o", "1": "i", "!": "i", "|": "i", "3": "e", "4": "a", "@": "a", "5": "s",
                             "$": "s", "7": "t", "8": "b", "9": "g"})  # fmt: skip


def folded(text: str) -> str:
    """Return ``text`` in lower case without accents, look-alike digits and signs read as letters."""
    plain = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    return plain.translate(LOOK_ALIKES)


class Names:
    """The words no name may hold: the built-in lists and the operator's file (one word per line, # comments)."""

    def __init__(self, extra_file: str = "") -> None:
        anywhere = set(ANYWHERE)
        if extra_file:  # the operator's words match anywhere
            for line in Path(extra_file).read_text(encoding="utf-8").splitlines():
                word = re.sub(r"[^a-z]", "", folded(line.split("#", 1)[0]))
                if word:
                    anywhere.add(word)
        self.long = sorted(anywhere)
        self.short = frozenset(AS_WORD)

    def blocked(self, name: str) -> bool:
        """True when ``name`` holds a word of the list (see the module's docstring for how it is read)."""
        text = folded(name)
        squeezed = re.sub(r"[^a-z]", "", text)
        if any(w in squeezed for w in self.long):
            return True
        words = re.findall(r"[a-z]+", text)
        if any(w in self.short for w in words):
            return True
        # single letters spaced out ("k u t"): read them together
        return bool(words) and all(len(w) == 1 for w in words) and squeezed in self.short
