"""Knowledge packs and agent birth."""
