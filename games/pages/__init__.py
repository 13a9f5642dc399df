"""What the table pages of the games app show: forms, option words, the sheet and replay
reads, the strings the scripts ask for (views stay thin and call these)."""
