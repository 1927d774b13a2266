"""The screens' translations: one .po file per language, read by croupier.i18n (no compiled .mo)."""
