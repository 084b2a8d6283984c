"""Device-local layouts: ``Layout``, ``Format`` and the conversions to XLA's layouts."""
