"""Many games at once: tournaments, the process and Ray backends, results files and collections."""
