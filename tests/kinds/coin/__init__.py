"""A tiny kind of game that lives only in the tests, to show that a kind is added without
touching generic code: its rules beside `games.rules` (`coin.rules`), its web part beside
`games.kinds` (`coin.kind`), and one line in the setting `THIRTY_KINDS`."""
