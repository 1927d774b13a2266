"""The translations: one .po file per language, compiled to .mo when croupier is built (croupier.i18n.catalogs)."""
