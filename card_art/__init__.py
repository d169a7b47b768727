"""The card art's sources: the fonts, their licence and the editions' palettes (package data).

Nothing to import: ``importlib.resources.files("card_art")`` finds the files, in a checkout, an
installed wheel or a zipped install alike (bot/render/fonts.py, bot/render/art.py).
"""
