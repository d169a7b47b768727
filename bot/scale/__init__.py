"""Running as many processes of one bot: the shared REST budget, identify turns, and the
operator's view (health and metrics)."""
