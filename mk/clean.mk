# Only what the suite made, and all of it: a build directory carrying the
# marker the suite writes when it makes one (mk/build-dir), emptied and
# removed, but for the download caches (DOWNLOAD_CACHES, relative to it),
# which make distclean removes too, saying so.
clean:
	$(Q)mk/build-dir clean $(call shq,$(B_ABS)) $(call shq,$(CURDIR)) $(DOWNLOAD_CACHES)
distclean:
	$(Q)mk/build-dir clean $(call shq,$(B_ABS)) $(call shq,$(CURDIR)) dist $(DOWNLOAD_CACHES)
.PHONY: clean distclean
