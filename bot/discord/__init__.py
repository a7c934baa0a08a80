"""The Discord front-end: a thin layer that turns interactions into service calls and
notices into messages. No game rules live here."""
