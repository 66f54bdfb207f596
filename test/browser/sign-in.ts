// Signing in through the sign-in form, as a person does, in English or in Japanese.
import type { Page } from "playwright-core";

/** Opens `home` (signed out, it shows the sign-in form), signs in, and waits until `home` is back. */
export async function signIn(page: Page, home: string, email: string, password: string): Promise<void> {
  await page.goto(home);
  await page.getByLabel(/^(E-mail address|メールアドレス)$/).fill(email);
  await page.getByLabel(/^(Password|パスワード)$/).fill(password);
  await page.getByRole("button", { name: /^(Sign in|ログイン)$/ }).click();
  await page.waitForURL(home);
}
