"""Rules pieces shared by several rulesets."""
