import sharp from 'sharp';

/**
 * sharp as the worker uses it: without libvips' operation cache. The worker never processes the
 * same input twice, so the cache (up to 50 MB, kept in the allocator's arenas) only raised the
 * resident memory of long runs such as the quartett export.
 */
sharp.cache(false);

export default sharp;
