"""Markers that put a text into the message catalogue without translating it yet.

Module-level constants (the English source texts) are marked with ``N_`` and translated where
they are shown, in the reader's language. The markers are identities: nothing here imports
anything, so the pure layers (the engine, the renderer) may use them.
"""

from __future__ import annotations


def N_(message: str) -> str:  # gettext's conventional name, known to the extractor
    """A text to translate later (returned unchanged)."""
    return message


def Np_(singular: str, plural: str) -> tuple[str, str]:
    """A text with plural forms to translate later with ``ngettext`` (returned unchanged)."""
    return singular, plural
