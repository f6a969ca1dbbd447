import { expect, test } from '@playwright/test';
import { captureEverywhere } from './support';

test('a signed-out visit to /dashboard lands on /login', async ({ page }) => {
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fdashboard/);
  await expect(page.getByLabel('Email')).toBeVisible();
});

test('an unknown path shows 404 Page Not Found', async ({ page }) => {
  await page.goto('/gibt-es-nicht/wirklich');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('404 Page Not Found');
  await captureEverywhere(page, 'not-found');
});
