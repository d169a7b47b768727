"""Numbered schema migrations (NNNN_name.sql), applied in order by Storage.open."""
