-- A handful of seeded FAQ rows so a fresh platform answers (F1) before any knowledge is loaded.
-- The full sample knowledge base (knowledge/sample/) replaces and extends these on first start.
INSERT INTO faq_entry (question, phrasings, answer, category, tags) VALUES
('退货的运费谁来出？', ARRAY['退货运费由谁承担', 'who pays return shipping'],
 '因商品质量问题退货，运费由我们承担；七天无理由退货的运费由买家承担，已购买运费险的可按保险理赔。', 'returns', ARRAY['退货','运费']),
('退款多久到账？', ARRAY['退款什么时候到账', 'how long does a refund take'],
 '退款审核通过后，原路退回：支付宝/微信一般 1-3 个工作日到账，银行卡 3-7 个工作日到账。', 'refunds', ARRAY['退款']),
('怎么查询物流信息？', ARRAY['我的快递到哪了', 'how do I track my order'],
 '在“我的订单”中点击对应订单的“查看物流”即可看到实时物流；发货后 24 小时内会更新轨迹。', 'shipping', ARRAY['物流','快递']),
('如何修改收货地址？', ARRAY['订单地址填错了怎么改', 'change my delivery address'],
 '订单发货前可在“我的订单”-“修改地址”中直接修改；已发货的订单请联系快递改派或联系客服协助。', 'orders', ARRAY['地址','订单']),
('优惠券为什么不能用？', ARRAY['优惠券用不了', 'why can''t I use my coupon'],
 '请检查优惠券是否在有效期内、订单金额是否满足使用门槛、商品是否在适用范围内；特价商品通常不能叠加使用优惠券。', 'coupons', ARRAY['优惠券']),
('支持哪些支付方式？', ARRAY['可以用什么付款', 'what payment methods do you accept'],
 '我们支持支付宝、微信支付、银联卡和信用卡分期；企业客户可申请对公转账。', 'payments', ARRAY['支付']),
('怎么投诉？', ARRAY['我要投诉', 'how do I file a complaint'],
 '非常抱歉给您带来不好的体验。您可以在“我的-客户服务-投诉建议”提交投诉，我们会在 24 小时内专人回复处理。', 'complaints', ARRAY['投诉']),
('忘记密码怎么办？', ARRAY['密码忘了怎么登录', 'I forgot my password'],
 '在登录页点击“忘记密码”，通过绑定的手机号接收验证码即可重置密码。', 'account', ARRAY['账号','密码']);
