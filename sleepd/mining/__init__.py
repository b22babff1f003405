"""Mining: episodes, signals, clusters, failure patterns, replay tasks, splits."""
