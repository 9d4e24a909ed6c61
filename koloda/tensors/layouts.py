"""The tensor layout of every game: which observation fields, in which order, how encoded.

A layout is a list of blocks (koloda.tensors.blocks). Fields not listed are ignored, so a
game may add observation fields without changing its tensor; a listed field that
disappears would encode as zeros, and the tests catch that. Scales keep the usual values
near 0..1 (a hand size over the largest hand, money over 100); they are part of the
documented layout (docs/research.md).
"""

from __future__ import annotations

from typing import Any

from koloda.tensors.blocks import (
    AttackTable,
    Block,
    Cards,
    Flag,
    Number,
    OneOf,
    Partners,
    PerPair,
    PerSeat,
    PerSeatCards,
    PerSeatOneOf,
    PerSeatSet,
    Seat,
    SeatCards,
    Seats,
    Suit,
    TrickCards,
    WildCards,
)

#: every game's tensor starts with these (the fields Match.observation always has)
HEADER: tuple[Block, ...] = (
    Seat("seat", "seat", "the observer's own seat number (absolute, one-hot)", absolute=True),
    Seat("to_move", "to_move", "the seat to act (relative; zeros when nobody acts)"),
    Seat("dealer", "dealer", "the dealer of this deal (relative)"),
    Flag("match_over", "match_over", "the match is over"),
    Number("deal_number", "deal_number", "deals dealt before this one, / 100", scale=0.01),
)


def _last_trick() -> tuple[Block, ...]:
    return (
        SeatCards("last_trick", "last_trick.cards", "the last completed trick, by seat"),
        Seat("last_trick_winner", "last_trick.winner", "who took the last trick"),
    )


class KopilkaTricks(Block):
    """Kopilka's ``tricks`` (per seat, a list of tricks won with their values): per
    relative seat the number of tricks / 5 and their total value / 20."""

    def size(self, players: int) -> int:
        return 2 * players

    def bounds(self) -> tuple[float, float]:
        return 0.0, 1e6

    def encode(self, value: Any, seat: int, players: int, out: list[float], at: int) -> None:
        for s, won in enumerate(value or ()):
            r = (s - seat) % players
            out[at + r] = len(won) / 5
            out[at + players + r] = sum(t.get("value", 0) for t in won) / 20


class KopilkaOffer(Block):
    """Kopilka's ``exchange`` (the offer face down now, or null): the offerer (relative
    one-hot), the number of cards / 5, then per position 0..7 a row of 1 + players: the
    position exists, and who took that card (relative)."""

    positions = 8

    def size(self, players: int) -> int:
        return players + 1 + self.positions * (1 + players)

    def encode(self, value: Any, seat: int, players: int, out: list[float], at: int) -> None:
        if not isinstance(value, dict):
            return
        offerer = value.get("offerer")
        if isinstance(offerer, int):
            out[at + (offerer - seat) % players] = 1.0
        out[at + players] = (value.get("count") or 0) / 5
        base = at + players + 1
        for k, taker in enumerate((value.get("taken") or [])[:self.positions]):
            row = base + k * (1 + players)
            out[row] = 1.0
            if isinstance(taker, int):
                out[row + 1 + (taker - seat) % players] = 1.0


_DURAK: tuple[Block, ...] = (
    OneOf("phase", "phase", "attack, defend, throw, over", vocab=("attack", "defend", "throw",
                                                                  "over")),
    Cards("hand", "hand", "the observer's hand"),
    PerSeat("hand_sizes", "hand_sizes", "cards in each hand / 36", scale=1 / 36),
    PerSeatCards("known_cards", "known_cards",
                 "cards known to lie in each hand (picked up with take, the drawn trump)"),
    AttackTable("table", "table", "rows: uncovered attack cards, covered attack cards, "
                                  "covering cards"),
    Cards("discard", "discard", "the discard pile (beaten cards, face up)"),
    Cards("trump_card", "trump_card", "the turned trump card"),
    Suit("trump_suit", "trump_suit", "the trump suit (S C D H)"),
    Seat("trump_drawn_by", "trump_drawn_by", "who drew the turned trump card"),
    Number("stock_size", "stock_size", "cards left in the stock / 36", scale=1 / 36),
    Seat("attacker", "attacker", "the first attacker of the round"),
    Seat("defender", "defender", "the defender"),
    Flag("taken", "taken", "the defender has said take"),
    Seats("passed", "passed", "attackers who passed since the last change"),
    Number("limit", "limit", "attack cards allowed this round / 6", scale=1 / 6),
    Seats("in_game", "in_game", "seats still in the game"),
    Partners("teams", "teams", "the observer's side (team play), else zeros"),
    Flag("first_bout", "first_bout", "no round has been beaten yet"),
    Number("first_bout_limit", "first_bout_limit", "the first-bout limit / 6", scale=1 / 6),
    PerSeat("losses", "sheet.losses", "games lost by each seat / 10", scale=0.1),
    Number("games_played", "sheet.games_played", "games of the match played / 10", scale=0.1),
    Number("games", "sheet.games", "games in the match / 10", scale=0.1),
)

_OPENDAUM: tuple[Block, ...] = (
    OneOf("phase", "phase", "bid, play, over", vocab=("bid", "play", "over")),
    Cards("hand", "hand", "the observer's hand"),
    PerSeat("hand_sizes", "hand_sizes", "cards in each hand / 18", scale=1 / 18),
    Number("deal_size", "deal_size", "cards dealt to each player this deal / 18", scale=1 / 18),
    Number("schedule_position", "schedule_position", "this deal's place in the schedule / 40",
           scale=1 / 40),
    Number("schedule_length", "schedule_length", "deals in the schedule / 40", scale=1 / 40),
    Flag("final_deal", "final_deal", "the last deal of the schedule"),
    Suit("trump", "trump", "the trump suit"),
    Cards("trump_card", "trump_card", "the card that shows the trump"),
    Flag("trump_card_in_dealer_hand", "trump_card_in_dealer_hand",
         "the shown trump card is the dealer's (all cards dealt)"),
    PerSeat("bids", "bids", "presence flags, then each seat's bid / 18", scale=1 / 18,
            optional=True),
    Number("forbidden_bid", "forbidden_bid", "presence flag, then the bid the dealer may "
                                             "not make / 18", scale=1 / 18, optional=True),
    PerSeat("tricks_taken", "tricks_taken", "tricks taken by each seat / 18", scale=1 / 18),
    Seat("leader", "leader", "who leads (led) the current trick"),
    SeatCards("trick", "trick", "the current trick, by seat"),
    *_last_trick(),
    TrickCards("tricks_played", "tricks_played", "every card of this deal's completed "
                                                 "tricks, by the seat that played it"),
    PerSeatSet("voids", "voids", "suits each seat is known to lack (S C D H)",
               vocab=("S", "C", "D", "H")),
    PerSeat("totals", "sheet.totals", "each seat's total points / 100", scale=0.01,
            signed=True),
)

_SHAKHI: tuple[Block, ...] = (
    WildCards("trick_wild", "trick", "6S, 6C lie in the current trick played wild"),
    WildCards("last_trick_wild", "last_trick.cards", "6S, 6C lay in the last trick played "
                                                     "wild"),
)

_MUSHKA: tuple[Block, ...] = (
    OneOf("phase", "phase", "exchange, play, over", vocab=("exchange", "play", "over")),
    Cards("hand", "hand", "the observer's hand"),
    PerSeat("hand_sizes", "hand_sizes", "cards in each hand / 5", scale=0.2),
    Cards("trump_card", "trump_card", "the turned card (out of play)"),
    Suit("trump", "trump", "the trump suit"),
    Number("stock", "stock", "cards left in the stock / 47", scale=1 / 47),
    PerSeatOneOf("choices", "choices", "each seat's exchange choice: stand, pass, discard 1..5",
                 vocab=("stand", "pass", "discard 1", "discard 2", "discard 3", "discard 4",
                        "discard 5")),
    Seats("in_play", "in_play", "seats playing this deal"),
    Cards("my_discards", "my_discards", "the observer's own discards (face down)"),
    SeatCards("trick", "trick", "the current trick, by seat"),
    *_last_trick(),
    PerSeat("tricks", "tricks", "tricks taken / 5", scale=0.2),
    PerSeat("scores", "sheet.scores", "each seat's count (starts at 25, lower is better) / 25",
            scale=1 / 25, signed=True),
)

_KOPILKA: tuple[Block, ...] = (
    OneOf("phase", "phase", "exchange, play, over", vocab=("exchange", "play", "over")),
    Cards("hand", "hand", "the observer's hand"),
    PerSeat("hand_sizes", "hand_sizes", "cards in each hand / 10", scale=0.1),
    Number("talon", "talon", "cards left in the talon / 12", scale=1 / 12),
    Number("pot", "pot", "money in the pot / 100", scale=0.01, signed=True),
    PerSeat("money", "money", "each seat's balance / 100", scale=0.01, signed=True),
    KopilkaTricks("tricks", "tricks", "per seat: tricks won / 5, then their value / 20"),
    KopilkaOffer("exchange", "exchange", "the offer lying face down now (see the class)"),
    Cards("exchange_cards", "exchange.cards", "the offered cards (only their owner sees them)"),
    Cards("my_discards", "my_discards", "the observer's own discards (face down)"),
    PerSeat("discards", "discards", "cards each seat has discarded / 5", scale=0.2),
    Seat("trick_leader", "trick.leader", "who leads the current trick"),
    Suit("trick_led", "trick.led", "the suit led"),
    SeatCards("trick", "trick.cards", "the current trick, by seat"),
    Seats("trick_passes", "trick.passes", "seats that passed on this trick"),
    PerSeat("trick_draws", "trick.draws", "cards each seat drew on this trick / 5", scale=0.2),
    *_last_trick(),
    Suit("banned_lead", "banned_lead", "the suit that may not be led (previous trick's)"),
    Number("failed_leads", "failed_leads", "failed leads in a row / 4", scale=0.25),
    Seat("first_to_shed", "first_to_shed", "the first seat to run out of cards"),
    Flag("blocked", "blocked", "the deal ended blocked"),
    Number("deals_played", "sheet.deals_played", "deals played / 4", scale=0.25),
)

_DREYFUS: tuple[Block, ...] = (
    OneOf("phase", "phase", "exchange, play, over", vocab=("exchange", "play", "over")),
    Cards("hand", "hand", "the observer's hand"),
    PerSeat("hand_sizes", "hand_sizes", "cards in each hand / 12", scale=1 / 12),
    Suit("trump", "trump", "the trump suit, or the fifth slot: no trump", no_suit=True),
    Number("widow_size", "widow_size", "cards left in the widow / 12", scale=1 / 12),
    PerSeat("bought", "bought", "cards each seat bought / 12", scale=1 / 12),
    Seats("skipped", "skipped", "seats skipped in the exchange (widow empty)"),
    Cards("my_discards", "my_discards", "the observer's own discards (face down)"),
    Seat("leader", "leader", "who leads (led) the current trick"),
    SeatCards("trick", "trick", "the current trick, by seat"),
    *_last_trick(),
    PerSeat("tricks", "tricks", "tricks taken / 12", scale=1 / 12),
    PerSeat("above", "sheet.above", "above-the-line totals / 20", scale=0.05),
    PerSeat("below", "sheet.below", "below-the-line totals / 10", scale=0.1),
    Seats("winners", "sheet.winners", "the match winners once fixed"),
    Suit("next_trump", "sheet.next_trump", "the next deal's trump (fifth slot: no trump)",
         no_suit=True),
)

_TRINKA: tuple[Block, ...] = (
    Cards("hand", "hand", "the observer's hand"),
    PerSeat("hand_sizes", "hand_sizes", "cards in each hand / 9", scale=1 / 9),
    Seat("leader", "leader", "who leads (led) the current trick"),
    SeatCards("trick", "trick", "the current trick, by seat"),
    PerSeat("tricks", "tricks", "tricks taken / 9", scale=1 / 9),
    PerPair("pair_tricks", "pair_tricks", "tricks by pair / 9, the observer's pair first",
            scale=1 / 9),
    *_last_trick(),
    TrickCards("tricks_played", "tricks_played", "every card of this deal's completed "
                                                 "tricks, by the seat that played it"),
    PerSeatSet("voids", "voids", "suits each seat is known to lack (spades, trumps, "
                                 "diamonds, hearts)",
               vocab=("spades", "trumps", "diamonds", "hearts")),
    PerPair("records", "sheet.records", "each pair's record still to write off / 12, the "
                                        "observer's pair first", scale=1 / 12, signed=True),
)

_STUKOLKA: tuple[Block, ...] = (
    OneOf("phase", "phase", "declare, play, over", vocab=("declare", "play", "over")),
    Cards("hand", "hand", "the observer's hand"),
    PerSeat("hand_sizes", "hand_sizes", "cards in each hand / 3", scale=1 / 3),
    Cards("trump_card", "trump_card", "the turned card"),
    Suit("trump", "trump", "the trump suit"),
    Flag("redeal", "redeal", "this deal is a redeal (the trump ace was turned)"),
    Number("pot", "pot", "the pot / 30", scale=1 / 30),
    Number("stock", "stock", "cards left in the stock / 52", scale=1 / 52),
    PerSeatOneOf("declared", "declared", "each seat's declaration: knock, drop, golets",
                 vocab=("knock", "drop", "golets")),
    Seat("golets", "golets", "who took the golets"),
    Seats("in_play", "in_play", "seats playing this deal"),
    Cards("my_discards", "my_discards", "the observer's own discards"),
    Seat("leader", "leader", "who leads (led) the current trick"),
    SeatCards("trick", "trick", "the current trick, by seat"),
    *_last_trick(),
    PerSeat("tricks", "tricks", "tricks taken / 3", scale=1 / 3),
    PerSeat("balances", "sheet.balances", "each seat's balance / 30", scale=1 / 30,
            signed=True),
    Number("deals_played", "sheet.deals_played", "deals played / 20", scale=0.05),
    Number("match_deals", "sheet.match_deals", "deals in the match / 20", scale=0.05),
)

_PYANITSY: tuple[Block, ...] = (
    PerSeat("pile_sizes", "pile_sizes", "cards in each pile / 52", scale=1 / 52),
    Number("set_aside", "set_aside", "cards set aside at the deal / 52", scale=1 / 52),
    Number("round", "round", "rounds played / 1000", scale=0.001),
    Seat("starter", "starter", "who starts this round"),
    SeatCards("table", "table", "cards on the table, by seat"),
    Number("tie_step", "tie_step", "tie-breaking steps this round / 5", scale=0.2),
    SeatCards("last_round", "last_round.cards", "the last round's cards, by seat"),
    Seat("last_round_winner", "last_round.winner", "who took the last round"),
    Seats("out", "out", "seats with no cards left"),
)

#: layout by game family; variants listed in VARIANT_EXTRA add blocks at the end
FAMILY_LAYOUTS: dict[str, tuple[Block, ...]] = {
    "durak": _DURAK,
    "opendaum": _OPENDAUM,
    "mushka": _MUSHKA,
    "kopilka": _KOPILKA,
    "dreyfus": _DREYFUS,
    "trinka": _TRINKA,
    "stukolka": _STUKOLKA,
    "pyanitsy": _PYANITSY,
}
VARIANT_EXTRA: dict[str, tuple[Block, ...]] = {
    "opendaum-shakhi": _SHAKHI,
    "opendaum-33": _SHAKHI,
}
