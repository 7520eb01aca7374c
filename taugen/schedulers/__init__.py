"""One package per scheduler (kueue/, kai/) behind one Protocol (protocol.py `Backend`), listed
in registry.py under the closed key `models.project.Scheduler`; docs/development.md says what a
new scheduler adds."""
