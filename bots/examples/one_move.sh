#!/usr/bin/env bash
# One Concerto move with nothing but curl (and jq to read the JSON).
#
#   SERVER=http://127.0.0.1:8000 bash bots/examples/one_move.sh
#
# 1. register a player (the token is shown once), 2. create a game in which that
# player holds all four seats, 3. ask for our turns, 4. play the first legal move
# with the view's version, 5. send it again: a repeated move + version is answered
# with the current view (safe retries), and 6. an old version with another move
# is refused with 409 stale_version.
set -euo pipefail
SERVER=${SERVER:-http://127.0.0.1:8000}
JSON='Content-Type: application/json'

player=$(curl -sf -X POST "$SERVER/v1/players" -H "$JSON" -d '{"name": "curl-player"}')
id=$(jq -r .id <<<"$player")
token=$(jq -r .token <<<"$player")
auth="Authorization: Bearer $token"
echo "registered $id"

game=$(curl -sf -X POST "$SERVER/v1/games" -H "$auth" -H "$JSON" \
  -d "{\"game\": \"concerto\", \"seats\": [\"$id\", \"$id\", \"$id\", \"$id\"],
       \"allow_multiple_seats\": true}")
game_id=$(jq -r .id <<<"$game")
echo "created game $game_id, status $(jq -r .status <<<"$game")"

turn=$(curl -sf "$SERVER/v1/me/turns?wait=5" -H "$auth" | jq '.turns[0]')
seat=$(jq .seat <<<"$turn")
version=$(jq .version <<<"$turn")
move=$(jq -c '.view.legal_moves[0]' <<<"$turn")
echo "seat $seat to move at version $version; hand $(jq -c .view.hand <<<"$turn")"

body="{\"move\": $move, \"version\": $version, \"seat\": $seat}"
view=$(curl -sf -X POST "$SERVER/v1/games/$game_id/moves" -H "$auth" -H "$JSON" -d "$body")
echo "played $move: now version $(jq .version <<<"$view"), to move $(jq -c .to_move <<<"$view")"

again=$(curl -sf -X POST "$SERVER/v1/games/$game_id/moves" -H "$auth" -H "$JSON" -d "$body")
echo "sent again: version $(jq .version <<<"$again") (not applied twice)"

stale="{\"move\": {\"type\": \"pass\"}, \"version\": $version, \"seat\": $seat}"
curl -s -X POST "$SERVER/v1/games/$game_id/moves" -H "$auth" -H "$JSON" -d "$stale" \
  | jq -c '{stale: .error.code}'
