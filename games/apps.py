from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        # The scheduler runs what it is given (it imports neither the services nor the
        # tasks, which schedule through it).
        from games import (
            account_data,  # noqa: F401  (a person's matches in his data)
            owner,
            scheduler,
            services,
            tasks,
        )
        from games.services import clock

        scheduler.register(bot_turn=services.bot_play, bot_turn_task=tasks.bot_turn_next)
        # With one owner per table, a bot's or the clock's move goes to the owner.
        clock.turns_at_owner(owner.turn_at_owner)
