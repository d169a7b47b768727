"""Server tournaments: the pure model (pairing, scoring, standings) and the manager."""
