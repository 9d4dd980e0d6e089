"""Posting a resolved turn where the players are: Discord webhooks.

- :mod:`~sheetmaster.app.delivery.webhooks`: the webhooks, from secrets only; scrubbing their
  addresses out of every message and log;
- :mod:`~sheetmaster.app.delivery.messages`: a report as Discord messages (split within the limit,
  tables between rows, mentions inert);
- :mod:`~sheetmaster.app.delivery.discord`: one message with its files, retried on 429 and 5xx;
- :mod:`~sheetmaster.app.delivery.post`: a turn's posts to every channel.
"""
