"""Posting a resolved turn where the players are: Discord webhooks.

- :mod:`~sheetmaster.app.delivery.webhooks`: the webhooks, from secrets only; scrubbing their
  addresses out of every message and log;
- :mod:`~sheetmaster.app.delivery.messages`: text split within Discord's limit (between
  paragraphs, tables between rows), mentions inert, files cut between lines;
- :mod:`~sheetmaster.app.delivery.compose`: a markdown report composed for Discord (its
  summary first, plain lines for tables, every section within the limits);
- :mod:`~sheetmaster.app.delivery.discord`: one message with its files, retried on 429 and 5xx;
- :mod:`~sheetmaster.app.delivery.record`: what a turn posted where, so posting it again posts
  nothing twice;
- :mod:`~sheetmaster.app.delivery.post`: a turn's posts to every channel.
"""
