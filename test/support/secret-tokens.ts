/**
 * Made-up secrets of common formats, each in the text a command or a config holds it in:
 * [name, text, the secret], for the redaction tests.
 */

/**
 * Sixteen token formats agents meet every day, written as a command prints or sets them;
 * the last ten were missed before the formats of gitleaks' rules were derived
 * (issue 31). Each token is made up, with the shape and entropy of a real one.
 */
export const COMMON_TOKENS: ReadonlyArray<[string, string, string]> = [
  ['GitHub', 'export GH=ghp_4fK9xQ2mL7pR1tZ8vB3nC6hJ0dW5sY2aE7uI', 'ghp_4fK9xQ2mL7pR1tZ8vB3nC6hJ0dW5sY2aE7uI'],
  ['AWS', 'aws configure set aws_access_key_id AKIAZ7QW3ERT9UIOP4XM', 'AKIAZ7QW3ERT9UIOP4XM'],
  ['Slack', 'curl -d token=xoxb-2048371920-7734109283-Qw8rTy3uIo9pAs2dFg4hJk1l', 'xoxb-2048371920-7734109283-Qw8rTy3uIo9pAs2dFg4hJk1l'],
  ['Stripe', 'STRIPE=sk_live_51HxQe2Kf8Lm3Np9Rs4Tv7Wx', 'sk_live_51HxQe2Kf8Lm3Np9Rs4Tv7Wx'],
  ['OpenAI', 'client = OpenAI(api_key="sk-proj-8Fh2Kd9Lq3Mn7Pr1St5Vx0Za4Bc6De")', 'sk-proj-8Fh2Kd9Lq3Mn7Pr1St5Vx0Za4Bc6De'],
  ['Google', 'maps?key=AIzaSyD4x9Q2k7L1m8N3p5R6s0T2u4V7w9X1y3Z', 'AIzaSyD4x9Q2k7L1m8N3p5R6s0T2u4V7w9X1y3Z'],
  ['Twilio', 'twilio api:core --api-key SK9f3c2a1b4d5e6f708192a3b4c5d6e7f8', 'SK9f3c2a1b4d5e6f708192a3b4c5d6e7f8'],
  ['Databricks', 'databricks configure --token dapi4e8f1a9c3b7d2e6f0a5c8b1d4e7f9a2c', 'dapi4e8f1a9c3b7d2e6f0a5c8b1d4e7f9a2c'],
  ['Mailgun', 'MAILGUN_KEY: key-3f9a1c7e5b2d8f4a6c0e9b1d3f5a7c2e', 'key-3f9a1c7e5b2d8f4a6c0e9b1d3f5a7c2e'],
  ['Linear', 'linear login lin_api_Zx8Cv2Bn6Mq1We9Rt5Yu3Io7Pa4Sd0Fg2Hj6Kl8m', 'lin_api_Zx8Cv2Bn6Mq1We9Rt5Yu3Io7Pa4Sd0Fg2Hj6Kl8m'],
  ['Doppler', 'doppler setup --token dp.pt.Kq7Wm2Xn9Rb4Tc8Vd1Yf6Zg3Hj5Lk0Ps2Qa7Sw9Ed4R', 'dp.pt.Kq7Wm2Xn9Rb4Tc8Vd1Yf6Zg3Hj5Lk0Ps2Qa7Sw9Ed4R'],
  ['Postman', 'newman run c.json --postman-api-key PMAK-64f1a9c2e7b3d5f8a0c4e6b1-9d2f7a4c1e8b3f6d0a5c9e2b7f4d1a8c3e6', 'PMAK-64f1a9c2e7b3d5f8a0c4e6b1-9d2f7a4c1e8b3f6d0a5c9e2b7f4d1a8c3e6'],
  ['Grafana', 'GRAFANA_TOKEN=glsa_Hk4Lm8Np2Qr6St0Uv3Wx7Yz1Ab5Cd9Ef_3fa9c2e1', 'glsa_Hk4Lm8Np2Qr6St0Uv3Wx7Yz1Ab5Cd9Ef_3fa9c2e1'],
  ['Sentry', 'sentry-cli --auth-token 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', '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'],
  ['New Relic', 'NEW_RELIC_API_KEY = "NRAK-7QX2M9KD4PL8RW3TZ6NB1VC5HYF"', 'NRAK-7QX2M9KD4PL8RW3TZ6NB1VC5HYF'],
  ['Telegram', 'telegram_bot: 7712345678:AAHk9dLq2Wm7Xr4Tz8Vb3Nc6Yf1Gj5Hs0Pe', '7712345678:AAHk9dLq2Wm7Xr4Tz8Vb3Nc6Yf1Gj5Hs0Pe'],
];

/** The three the log itself still let through. */
export const LOG_LEAKS: ReadonlyArray<[string, string, string]> = [
  ['az login -p', 'az login --service-principal -u 3f1c-app -p Zr8~Qk2.Wm7-Xn4_Tb9 --tenant contoso', 'Zr8~Qk2.Wm7-Xn4_Tb9'],
  ['a Vault s. token', 'VAULT_ADDR=https://vault:8200 vault login s.Kq7Wm2Xn9Rb4Tc8Vd1Yf6Zg3', 's.Kq7Wm2Xn9Rb4Tc8Vd1Yf6Zg3'],
  ['a Telegram bot URL', 'curl https://api.telegram.org/bot7712345678:AAHk9dLq2Wm7Xr4Tz8Vb3Nc6Yf1Gj5Hs0Pe/sendMessage -d text=hi', 'AAHk9dLq2Wm7Xr4Tz8Vb3Nc6Yf1Gj5Hs0Pe'],
];

