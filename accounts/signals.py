"""What other apps hear of an account, so that accounts imports none of them.

* ``account_data`` (``user``): a person downloads his data; each receiver returns
  ``(section, data)``, JSON-ready, of what its app holds about him.
* ``account_erasing`` (``user``): a closed account is erased, inside the erasing
  transaction; a receiver removes what must not outlive it (chat lines) and keeps what
  others rely on (match records, ratings).
"""

from django.dispatch import Signal

account_data = Signal()
account_erasing = Signal()
