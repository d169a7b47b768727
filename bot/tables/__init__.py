"""Tables: the async owner of every game's state, locks and timers, between Discord and engine."""
