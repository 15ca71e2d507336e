#!/usr/bin/env bash
# Regenerates docs/img/check-human.png: the human output of `skillc check`
# in a real terminal (tmux, 132x22), captured with its colours
# (tmux capture-pane -e), converted to HTML (aha) and rendered by headless
# Chromium; ImageMagick trims the margin.
#
# Needs: go, tmux, aha, chromium, ImageMagick convert (apt-get install tmux aha
# chromium imagemagick; set CONVERT to its path if another convert comes first).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
out="$repo/docs/img"
work=$(mktemp -d)
trap 'tmux kill-session -t skillc-shot 2>/dev/null || true; rm -rf "$work"' EXIT

go build -o "$work/bin/skillc" "$repo/cmd/skillc"
mkdir -p "$work/demo"
cat > "$work/demo/greet.skill.md" <<'SKILL'
# Skill: greet
# Description: Greet someone by name.
# Vars: WHO=world

greet:
    emit(text="Hello, ${WH0}!")

old:
    emit(text="unused")

default: greet
SKILL

tmux -f /dev/null new-session -d -s skillc-shot -x 132 -y 22 -c "$work/demo" \
  "env PATH=$work/bin:\$PATH SKILLSCRIPT_HOME=$work/home PS1='$ ' bash --norc --noprofile"
sleep 0.5
tmux send-keys -t skillc-shot "clear" Enter
sleep 0.5
tmux send-keys -t skillc-shot "skillc check --color=always greet.skill.md" Enter
sleep 2
tmux capture-pane -t skillc-shot -e -p > "$work/pane.ansi"

{
  echo '<!doctype html><meta charset="utf-8"><style>'
  echo 'body{margin:0;background:#1e1e1e}pre{margin:0;padding:16px;color:#d4d4d4;font:15px/1.35 "DejaVu Sans Mono",monospace}'
  echo '</style><pre>'
  aha --no-header --black < "$work/pane.ansi"
  echo '</pre>'
} > "$work/pane.html"

chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
  --window-size=1320,520 --screenshot="$work/raw.png" "file://$work/pane.html" >/dev/null 2>&1
"${CONVERT:-convert}" "$work/raw.png" -bordercolor '#1e1e1e' -trim +repage -bordercolor '#1e1e1e' -border 16 "$out/check-human.png"
echo "wrote $out/check-human.png"
