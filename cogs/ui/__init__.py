"""Message layouts (Components V2) and the dynamic buttons that drive tables."""
