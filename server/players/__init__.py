"""People: devices, names and the rating model."""
