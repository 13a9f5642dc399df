import factory
from factory.django import DjangoModelFactory, Password

from accounts.models import User

PASSWORD = "correct horse battery staple"


class UserFactory(DjangoModelFactory[User]):
    class Meta:
        model = User
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    display_name = factory.Sequence(lambda n: f"Player {n}")
    password = Password(PASSWORD)
