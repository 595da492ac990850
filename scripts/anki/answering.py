"""One answer at a time through Anki's v3 scheduler, as the test scripts study: the next card
Anki queues, rated at random with Again 15 %, Hard 15 %, Good 55 %, Easy 15 %."""


def answer_next(col, rng):
    """Answers the next queued card; False when Anki has nothing to show."""
    from anki.scheduler.v3 import CardAnswer

    queued = col.sched.get_queued_cards(fetch_limit=1).cards
    if not queued:
        return False
    card = col.get_card(queued[0].card.id)
    card.start_timer()
    ratings = [CardAnswer.AGAIN, CardAnswer.HARD, CardAnswer.GOOD, CardAnswer.EASY]
    rating = rng.choices(ratings, weights=[0.15, 0.15, 0.55, 0.15])[0]
    col.sched.answer_card(col.sched.build_answer(card=card, states=queued[0].states, rating=rating))
    return True
