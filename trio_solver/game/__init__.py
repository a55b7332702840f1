"""The game itself: rules, reveals, events, the replayer of the public history, a seat's view, the
true state and the record format."""
