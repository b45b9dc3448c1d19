//! Collation names, checked as Spark checks them when it builds a string type: `UTF8_BINARY`,
//! `UTF8_LCASE`, `UNICODE` or a locale of ICU's collator, then modifiers (`UNICODE_CI_AI`,
//! `sr_Cyrl_SRB_RTRIM`). Case is ignored throughout.

/// The locales of ICU's collator as Spark 4.3 names them: a language, then a script, then a
/// country's three-letter code (`en_USA`, not `en_US`). Sorted, ignoring case.
const LOCALES: [&str; 144] = [
    "af",
    "am",
    "ar",
    "ar_SAU",
    "as",
    "az",
    "be",
    "bg",
    "blo",
    "bn",
    "bo",
    "br",
    "bs",
    "bs_Cyrl",
    "ca",
    "ceb",
    "chr",
    "cs",
    "cy",
    "da",
    "de",
    "de_AUT",
    "dsb",
    "dz",
    "ee",
    "el",
    "en",
    "en_USA",
    "eo",
    "es",
    "et",
    "fa",
    "fa_AFG",
    "ff",
    "ff_Adlm",
    "fi",
    "fil",
    "fo",
    "fr",
    "fr_CAN",
    "fy",
    "ga",
    "gl",
    "gu",
    "ha",
    "haw",
    "he",
    "he_ISR",
    "hi",
    "hr",
    "hsb",
    "hu",
    "hy",
    "id",
    "id_IDN",
    "ig",
    "is",
    "it",
    "ja",
    "ka",
    "kk",
    "kk_Arab",
    "kl",
    "km",
    "kn",
    "ko",
    "kok",
    "ku",
    "ky",
    "lb",
    "lij",
    "lkt",
    "ln",
    "lo",
    "lt",
    "lv",
    "mk",
    "ml",
    "mn",
    "mr",
    "ms",
    "mt",
    "my",
    "nb",
    "nb_NOR",
    "ne",
    "nl",
    "nn",
    "no",
    "nso",
    "om",
    "or",
    "pa",
    "pa_Guru",
    "pa_Guru_IND",
    "pl",
    "ps",
    "pt",
    "ro",
    "ru",
    "sa",
    "se",
    "si",
    "sk",
    "sl",
    "smn",
    "sq",
    "sr",
    "sr_Cyrl",
    "sr_Cyrl_BIH",
    "sr_Cyrl_MNE",
    "sr_Cyrl_SRB",
    "sr_Latn",
    "sr_Latn_BIH",
    "sr_Latn_SRB",
    "st",
    "sv",
    "sw",
    "ta",
    "te",
    "th",
    "tk",
    "tn",
    "to",
    "tr",
    "ug",
    "uk",
    "ur",
    "uz",
    "vi",
    "wae",
    "wo",
    "xh",
    "yi",
    "yo",
    "zh",
    "zh_Hans",
    "zh_Hans_CHN",
    "zh_Hans_SGP",
    "zh_Hant",
    "zh_Hant_HKG",
    "zh_Hant_MAC",
    "zh_Hant_TWN",
    "zu",
];

/// Whether Spark knows the collation `name`.
pub fn is_collation(name: &str) -> bool {
    let (modifiers, only_rtrim) = if let Some(rest) =
        strip_prefix(name, "UTF8_BINARY").or_else(|| strip_prefix(name, "UTF8_LCASE"))
    {
        (rest, true)
    } else if let Some(rest) = strip_prefix(name, "UNICODE") {
        (rest, false)
    } else {
        // The longest locale the name starts with: `zh_Hant_TWN` before `zh_Hant` and `zh`.
        let Some(rest) = LOCALES
            .iter()
            .filter_map(|locale| strip_prefix(name, locale))
            .min_by_key(|rest| rest.len())
        else {
            return false;
        };
        (rest, false)
    };
    if modifiers.is_empty() {
        return true;
    }
    let Some(modifiers) = modifiers.strip_prefix('_') else {
        return false;
    };
    // One modifier at most from each group: case, accents, trailing spaces.
    let mut seen = [false; 3];
    modifiers.split('_').all(|modifier| {
        let group = match modifier.to_ascii_uppercase().as_str() {
            "RTRIM" => 2,
            _ if only_rtrim => return false,
            "CS" | "CI" => 0,
            "AS" | "AI" => 1,
            _ => return false,
        };
        !std::mem::replace(&mut seen[group], true)
    })
}

/// `name` after `prefix` (in any case) when that ends at a word boundary.
fn strip_prefix<'n>(name: &'n str, prefix: &str) -> Option<&'n str> {
    let head = name.get(..prefix.len())?;
    let rest = &name[prefix.len()..];
    (head.eq_ignore_ascii_case(prefix) && (rest.is_empty() || rest.starts_with('_')))
        .then_some(rest)
}

#[cfg(test)]
mod tests {
    use super::is_collation;

    #[test]
    fn builtin_collations_take_modifiers_in_any_order() {
        for name in [
            "UTF8_BINARY",
            "utf8_lcase_rtrim",
            "UNICODE",
            "unicode_ci",
            "UNICODE_RTRIM_AI_CS",
        ] {
            assert!(is_collation(name), "{name}");
        }
        for name in [
            "UTF8_LCASE_CI",
            "UTF8_BINARY_AI",
            "UNICODE_CI_CS",
            "UNICODE_",
            "UTF8",
            "UNICODE_LCASE",
        ] {
            assert!(!is_collation(name), "{name}");
        }
    }

    #[test]
    fn locales_are_icu_collator_locales_with_three_letter_countries() {
        for name in [
            "en",
            "EN_ci",
            "en_USA",
            "en_usa_ci_ai",
            "sr_Cyrl_SRB_CI",
            "zh_Hant_TWN",
            "zh_Hant",
            "de_RTRIM_CI",
        ] {
            assert!(is_collation(name), "{name}");
        }
        for name in [
            "foo", "en_US", "zh_TWN", "de_DEU", "en__CI", "en_", "xx", "en USA", "en_CI_CI",
        ] {
            assert!(!is_collation(name), "{name}");
        }
    }
}
